import argon2 from 'argon2';

/**
 * Passwords are hashed with argon2id at OWASP's recommended cost (19 MiB, 2 passes): the same
 * resistance as scrypt for a fraction of the login latency (docs/decisions/0001-argon2id-password-hashing.md).
 */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash never matches
  }
}

/**
 * A real hash of a random password, verified against when an email is unknown so that the
 * answer takes as long as for a known email with a wrong password.
 */
let dummyHash: Promise<string> | undefined;
export function verifyAgainstDummy(password: string): Promise<boolean> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash.then((hash) => verifyPassword(hash, password)).then(() => false);
}
