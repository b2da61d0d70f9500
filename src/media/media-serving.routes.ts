import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { servedMime } from './images.js';
import { servedFile } from './media.values.js';
import { ServedParams } from './media.schema.js';
import type { ServedImages } from './served-images.js';

/** A served size never changes: its URL names the original's content hash, the width and the format. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Product images for everyone: GET /media/{key}/{width}.{format}, resized on first request and kept. */
export function mediaServingRoutes(deps: { images: ServedImages }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/media/:key/:file',
      {
        schema: {
          tags: ['media'],
          summary: 'An image at one of the widths (160, 320, 640, 1024, 1600) in WebP, AVIF or JPEG',
          description:
            "Use the URLs of an image's answer (url, srcset, srcset_avif). Never larger than the original. Cached "
            + 'for a year (immutable): the URL changes when the image does.',
          params: ServedParams,
          response: { ...problems(404, 422) },
        },
      },
      async (request, reply) => {
        const { key } = request.params;
        const file = servedFile(request.params.file);
        if (!file) throw new DomainError('media_not_found', { detail: 'no such size' });
        const etag = `"${key}-${request.params.file}"`;
        // The tag names the content: a client that has it has these bytes, nothing needs reading.
        if (request.headers['if-none-match'] === etag) {
          return reply.code(304).header('cache-control', IMMUTABLE).header('etag', etag).send();
        }
        const bytes = await deps.images.get(key, file);
        // Set only now: a 404 must not be kept for a year.
        if (!bytes) throw new DomainError('media_not_found', { detail: `no image has the key ${key}` });
        reply.header('cache-control', IMMUTABLE).header('etag', etag).header('x-content-type-options', 'nosniff');
        return reply.type(servedMime(file)).send(bytes);
      },
    );
  };
}
