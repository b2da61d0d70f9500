/** An image as the API answers it (a product's `images`): sizes in AVIF and WebP, a JPEG fallback, its box. */
export interface ImageAnswer {
  url: string;
  alt: string;
  width: number;
  height: number;
  srcset: string;
  srcset_avif: string;
}

/**
 * A product image: AVIF where the browser takes it, else WebP, else the JPEG; `width` and `height` set so the page
 * keeps its box while the image loads (no layout shift). `sizes` says how wide it is shown; `eager` for one above the
 * fold, lazy otherwise.
 */
export function Picture(props: { image: ImageAnswer; sizes: string; eager?: boolean; class?: string }) {
  const { image } = props;
  return (
    <picture>
      <source type="image/avif" srcset={image.srcset_avif} sizes={props.sizes} />
      <source type="image/webp" srcset={image.srcset} sizes={props.sizes} />
      <img
        class={props.class}
        src={image.url}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={props.eager ? 'eager' : 'lazy'}
        decoding="async"
      />
    </picture>
  );
}

/**
 * A line's thumbnail in a cart, a checkout's summary or an order (the line's `image`): 4rem wide beside its name, the
 * smallest size the browser finds enough for that (`srcset`), its box from `width`/`height`, lazily loaded.
 */
export function LineThumbnail(props: { image: ImageAnswer | null }) {
  if (props.image === null) return null;
  return <Picture image={props.image} sizes="4rem" class="line-image" />;
}
