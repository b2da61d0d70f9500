import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { requireUser, principalOf } from '../http/auth.js';
import { bearerAuth, problems, StrictObject } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { type AuthDeps, logIn, PASSWORD_MIN_LENGTH, refreshSession, signUp } from './auth.service.js';
import { findUserById, publicUser } from './users.repository.js';

export const User = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  role: Type.Union([Type.Literal('customer'), Type.Literal('admin')]),
});

const Tokens = { access: Type.String(), refresh: Type.String() };
const SessionBody = Type.Object({ user: User, ...Tokens });
const Email = Type.String({ minLength: 3, maxLength: 254 });
const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 });
const Name = Type.String({ maxLength: 100 });
/**
 * A guest's cart comes along at sign-up and sign-in; a token that names no cart (or a malformed one) merges nothing.
 */
const GuestCart = Type.Object({
  'x-cart-token': Type.Optional(
    Type.String({ description: "The guest's cart_token: its lines are merged into the customer's cart" }),
  ),
});

export interface AuthRouteDeps extends AuthDeps {
  config: Config;
  /** Runs after a successful signup or login, before the answer (e.g. to merge a guest cart). */
  afterSignIn?: (request: FastifyRequest, userId: number) => Promise<void>;
}

export function authRoutes(deps: AuthRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const rateLimit = { max: deps.config.authRateLimitPerMinute, timeWindow: '1 minute' };
    const tags = ['users'];

    app.post(
      '/user/storefront/api/signup/',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Create a customer account (send X-Cart-Token to bring a guest cart along)',
          headers: GuestCart,
          body: StrictObject(
            {
              email: Email,
              password: Password,
              first_name: Type.Optional(Name),
              last_name: Type.Optional(Name),
            },
            { examples: [{ email: 'ada@example.com', password: 'correct horse', first_name: 'Ada' }] },
          ),
          response: { 201: SessionBody, ...problems(409, 422, 429) },
        },
      },
      async (request, reply) => {
        const { email, password, first_name, last_name } = request.body;
        const session = await signUp(deps, { email, password, firstName: first_name, lastName: last_name });
        await deps.afterSignIn?.(request, session.user.id);
        return reply.code(201).send({ ...session, user: publicUser(session.user) });
      },
    );

    app.post(
      '/user/storefront/api/login/',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Sign in with email and password (send X-Cart-Token to merge a guest cart)',
          headers: GuestCart,
          body: StrictObject(
            { email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) },
            { examples: [{ email: 'ada@example.com', password: 'correct horse' }] },
          ),
          response: { 200: SessionBody, ...problems(401, 422, 429) },
        },
      },
      async (request) => {
        const session = await logIn(deps, request.body);
        await deps.afterSignIn?.(request, session.user.id);
        return { ...session, user: publicUser(session.user) };
      },
    );

    app.post(
      '/user/storefront/api/token/refresh/',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Exchange a refresh token for a new token pair (the old one stops working)',
          body: StrictObject(
            {
              refresh: Type.String({
                minLength: 1,
                maxLength: 4096,
                description: 'The refresh token of the last pair',
              }),
            },
            { examples: [{ refresh: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }] },
          ),
          response: { 200: Type.Object(Tokens), ...problems(401, 422, 429) },
        },
      },
      async (request) => refreshSession(deps, request.body.refresh),
    );

    app.get(
      '/user/storefront/api/me/',
      {
        onRequest: requireUser,
        schema: {
          tags,
          summary: 'The signed-in user',
          security: bearerAuth,
          response: { 200: User, ...problems(401) },
        },
      },
      async (request) => {
        const user = await findUserById(deps.db, principalOf(request).userId);
        if (!user) throw new DomainError('invalid_token', { detail: 'the account no longer exists' });
        return publicUser(user);
      },
    );
  };
}
