import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { type ImageLimits, storedImage } from './images.js';
import type { MediaStorage } from './media-storage.js';
import { originalName } from './media.values.js';
import { presentAdminImage } from './media.presenter.js';
import { addImage, changeImage, deleteImage, productImages } from './media.repository.js';
import { AdminImage, ImageChangeBody, UploadQuery } from './media.schema.js';

export interface MediaAdminDeps extends ReferenceWriter {
  db: Db;
  storage: MediaStorage;
  limits: ImageLimits;
}

/** Reads a request's body into one buffer, refusing it (413) once it passes `maxBytes`. */
function bodyUpTo(maxBytes: number) {
  const tooLarge = () =>
    new DomainError('payload_too_large', {
      detail: `an image may be at most ${maxBytes} bytes (MEDIA_MAX_UPLOAD_BYTES)`,
    });
  return (
    request: FastifyRequest,
    payload: NodeJS.ReadableStream,
    done: (err: Error | null, body?: Buffer) => void,
  ) => {
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes) return done(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (finished) return;
      finished = true;
      done(err, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish(tooLarge());
      else chunks.push(chunk);
    });
    payload.on('end', () => finish(null, Buffer.concat(chunks)));
    payload.on('error', (err: Error) => finish(err));
  };
}

const INT4_MAX = 2_147_483_647;

/** `variant_ids` of an upload's query ("12,13"), each a positive integer id. */
function variantIdsOf(list: string | undefined): number[] | undefined {
  if (list === undefined) return undefined;
  const ids = [...new Set(list.split(',').map(Number))];
  if (ids.some((id) => id < 1 || id > INT4_MAX)) throw invalidField('variant_ids', 'must be variant ids (1 or more)');
  return ids;
}

/** Product images for admins: /product/dashboard/api/products/{id}/media/ and /product/dashboard/api/media/{id}/. */
export function mediaAdminRoutes(deps: MediaAdminDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['media (admin)'], security: bearerAuth };
    const base = '/product/dashboard/api';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/products/:id/media/`,
      {
        schema: {
          ...common,
          summary: "A product's images in their order",
          params: IdParams,
          response: { 200: Type.Array(AdminImage), ...problems(401, 403, 404) },
        },
      },
      async (request) => (await productImages(deps.db, request.params.id)).map(presentAdminImage),
    );

    // The upload alone takes a body that is not JSON: the image's bytes, whatever the Content-Type says.
    await app.register(async (plain) => {
      const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', bodyUpTo(deps.limits.maxBytes));
      scope.post(
        `${base}/products/:id/media/`,
        {
          schema: {
            ...common,
            summary: 'Upload an image of a product (the body is the image)',
            description:
              'The body is the image file itself (JPEG, PNG, WebP, AVIF or GIF; its type is read from the bytes, '
              + 'the Content-Type is not trusted); the alt text is required. The image is stored re-encoded, '
              + 'without metadata (EXIF, GPS). SVG and other types: 415 image_type_not_accepted; larger than '
              + 'MEDIA_MAX_UPLOAD_BYTES: 413; more pixels than MEDIA_MAX_PIXELS: 422 image_too_many_pixels.',
            params: IdParams,
            querystring: UploadQuery,
            response: { 201: AdminImage, ...problems(401, 403, 404, 413, 415, 422) },
          },
        },
        async (request, reply) => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const { alt, position, variant_ids } = request.query;
          // Unknown product first: nothing is stored for a request that cannot succeed.
          await productImages(deps.db, request.params.id);
          const image = await storedImage(body, deps.limits);
          await deps.storage.put(originalName(image.key), image.bytes, image.mime);
          const added = await addImage(deps.db, {
            productId: request.params.id,
            key: image.key,
            width: image.width,
            height: image.height,
            mime: image.mime,
            byteSize: image.bytes.length,
            alt: alt.trim(),
            position,
            variantIds: variantIdsOf(variant_ids),
          });
          return reply.code(201).send(presentAdminImage(added));
        },
      );
    });

    app.patch(
      `${base}/media/:id/`,
      {
        schema: {
          ...common,
          summary: "Change an image's alt text, move it among its product's images, or set the variants it shows",
          params: IdParams,
          body: ImageChangeBody,
          response: { 200: AdminImage, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { alt, position, variant_ids } = request.body;
        const image = await changeImage(deps.db, request.params.id, {
          alt: alt?.trim(),
          position,
          variantIds: variant_ids,
        });
        return presentAdminImage(image);
      },
    );

    app.delete(
      `${base}/media/:id/`,
      {
        schema: {
          ...common,
          summary: 'Take an image off its product (the others close the gap)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteImage(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
