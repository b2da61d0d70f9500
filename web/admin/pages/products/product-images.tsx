import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { Picture } from '../../../shared/picture';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useWrite } from '../../use-write';
import { CheckboxField, StatusMessage } from '../common/form-parts';
import type { Product } from './variant-draft';

type Image = Answer<'/product/dashboard/api/products/{id}/media/', 'get'>[number];

/** A file chosen or dropped, waiting for its alt text before it is sent. */
interface Pending {
  file: File;
  alt: string;
}

/**
 * A product's images: drop files on the zone (or choose them: the file input is the keyboard's way), give each its
 * alt text, upload; then change alt text, the variants an image shows, the order (drag an image onto another, or
 * the up and down buttons), or delete one.
 */
export function ProductImages(props: { product: Product; onChanged: () => void }) {
  const { product, onChanged } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState<number>();
  const [missingAlt, setMissingAlt] = useState(false);
  const images = product.images;

  const choose = (files: FileList | null | undefined) => {
    if (!files) return;
    setPending((before) => [...before, ...Array.from(files).map((file) => ({ file, alt: '' }))]);
  };
  const upload = async (event: Event) => {
    event.preventDefault();
    if (pending.some((p) => p.alt.trim() === '')) {
      setMissingAlt(true);
      return;
    }
    setMissingAlt(false);
    const sent = await write.run(
      async () => {
        for (const { file, alt } of pending) {
          await ok(
            api.POST('/product/dashboard/api/products/{id}/media/', {
              params: { path: { id: product.id }, query: { alt: alt.trim() } },
              // The body is the file itself (the API reads its type from the bytes).
              body: file as never,
              bodySerializer: (body: unknown) => body as string,
              headers: { 'content-type': file.type || 'application/octet-stream' },
            }),
          );
        }
        return pending.length;
      },
      (count) => `${count} image${count === 1 ? '' : 's'} uploaded.`,
    );
    if (sent !== undefined) {
      setPending([]);
      onChanged();
    }
  };
  const change = (image: Image, body: { alt?: string; position?: number; variant_ids?: number[] }, said: string) =>
    void write
      .run(
        () => ok(api.PATCH('/product/dashboard/api/media/{id}/', { params: { path: { id: image.id } }, body })),
        () => said,
      )
      .then((changed) => changed && onChanged());
  const remove = (image: Image) =>
    void write
      .run(
        () =>
          ok(api.DELETE('/product/dashboard/api/media/{id}/', { params: { path: { id: image.id } } })).then(
            () => image,
          ),
        () => 'Image deleted.',
      )
      .then((deleted) => deleted && onChanged());

  return (
    <section aria-labelledby="images-heading">
      <h2 id="images-heading">Images</h2>
      {images.length === 0 && <p class="muted">No images yet.</p>}
      <ol class="image-list">
        {images.map((image, index) => (
          <li
            key={image.id}
            class={dragging === image.id ? 'dragging' : undefined}
            draggable
            onDragStart={(e) => {
              setDragging(image.id);
              e.dataTransfer?.setData('text/plain', String(image.id));
            }}
            onDragEnd={() => setDragging(undefined)}
            onDragOver={(e) => dragging !== undefined && e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const moved = images.find((i) => i.id === dragging);
              setDragging(undefined);
              if (moved && moved.id !== image.id) change(moved, { position: index }, 'Image moved.');
            }}
          >
            <Picture image={image} sizes="6rem" class="image-list-thumb" />
            <ImageFields
              image={image}
              product={product}
              onSave={(body) => change(image, body, 'Image saved.')}
              busy={write.busy}
            />
            <div class="row">
              <button
                type="button"
                disabled={index === 0 || write.busy}
                onClick={() => change(image, { position: index - 1 }, 'Image moved up.')}
                aria-label={`Move up: ${image.alt}`}
              >
                ↑
              </button>
              <button
                type="button"
                disabled={index === images.length - 1 || write.busy}
                onClick={() => change(image, { position: index + 1 }, 'Image moved down.')}
                aria-label={`Move down: ${image.alt}`}
              >
                ↓
              </button>
              <button type="button" class="danger" disabled={write.busy} onClick={() => remove(image)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ol>
      <form onSubmit={upload} noValidate aria-label="Upload images">
        <label
          class="drop-zone"
          onDragOver={(e) => {
            if (dragging === undefined) e.preventDefault();
          }}
          onDrop={(e) => {
            if (dragging !== undefined) return;
            e.preventDefault();
            choose(e.dataTransfer?.files);
          }}
        >
          Drop images here, or choose them:{' '}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            multiple
            onChange={(e) => {
              choose(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </label>
        {pending.map((p, i) => (
          <div class="row" key={`${p.file.name}-${i}`}>
            <Field
              label={`Alt text for ${p.file.name}`}
              required
              value={p.alt}
              error={missingAlt && p.alt.trim() === '' ? 'Say what the image shows' : undefined}
              onInput={(e) => {
                const alt = e.currentTarget.value;
                setPending((before) => before.map((q, j) => (j === i ? { ...q, alt } : q)));
              }}
            />
            <button type="button" onClick={() => setPending((before) => before.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        ))}
        {pending.length > 0 && (
          <button type="submit" disabled={write.busy}>
            Upload {pending.length} image{pending.length === 1 ? '' : 's'}
          </button>
        )}
      </form>
      <ErrorMessage problem={write.problem} />
      <StatusMessage text={write.done} />
    </section>
  );
}

/** One image's alt text and the variants it shows, saved together. */
function ImageFields(props: {
  image: Image;
  product: Product;
  busy: boolean;
  onSave: (body: { alt: string; variant_ids: number[] }) => void;
}) {
  const { image, product } = props;
  const [alt, setAlt] = useState(image.alt);
  const [variantIds, setVariantIds] = useState(image.variant_ids);
  const save = (event: Event) => {
    event.preventDefault();
    props.onSave({ alt, variant_ids: variantIds });
  };
  return (
    <form onSubmit={save} noValidate class="image-fields">
      <Field
        label="Alt text"
        required
        value={alt}
        onInput={(e) => setAlt(e.currentTarget.value)}
        error={alt.trim() === '' ? 'Say what the image shows' : undefined}
      />
      {product.variants.length > 1 && (
        <fieldset>
          <legend>Shown for</legend>
          {product.variants.map((v) => (
            <CheckboxField
              key={v.id}
              label={v.name}
              checked={variantIds.includes(v.id)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setVariantIds((ids) => (on ? [...ids, v.id] : ids.filter((id) => id !== v.id)));
              }}
            />
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={props.busy || alt.trim() === ''}>
        Save image
      </button>
    </form>
  );
}
