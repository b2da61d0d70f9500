import { useState } from 'preact/hooks';
import { type ImageAnswer, Picture } from '../../shared/picture';

type Image = ImageAnswer & { id: number };

/** The chosen variant's images first, then the product's others, each once, in the product's order. */
export function galleryOrder(images: readonly Image[], variantImageIds: readonly number[]): Image[] {
  const own = images.filter((i) => variantImageIds.includes(i.id));
  return [...own, ...images.filter((i) => !variantImageIds.includes(i.id))];
}

/** A product's images: one large, the others as buttons that show it; a click on the large one opens it full size. */
export function Gallery(props: { images: readonly Image[]; variantImageIds: readonly number[] }) {
  const ordered = galleryOrder(props.images, props.variantImageIds);
  const [shownId, setShownId] = useState<number>();
  const shown = ordered.find((i) => i.id === shownId) ?? ordered[0];
  if (!shown) return null;
  // The largest size there is (the original's width at most): what a zoom shows.
  const largest = shown.srcset.split(', ').at(-1)?.split(' ')[0] ?? shown.url;
  return (
    <div class="gallery">
      <a href={largest} target="_blank" rel="noopener" title="Open the large image">
        <Picture image={shown} sizes="(min-width: 48rem) 32rem, 100vw" eager class="gallery-main" />
      </a>
      {ordered.length > 1 && (
        <ul class="thumbnails">
          {ordered.map((image) => (
            <li key={image.id}>
              <button
                type="button"
                aria-pressed={image.id === shown.id}
                aria-label={`Show: ${image.alt}`}
                onClick={() => setShownId(image.id)}
              >
                <Picture image={image} sizes="4rem" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
