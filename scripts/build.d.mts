// Types of scripts/build.mjs for the tests that import it.
export function sourceDigest(root: string): string;
export function isUpToDate(root: string, digest?: string): boolean;
export function build(root: string, options?: { force?: boolean }): 'built' | 'up-to-date';
export function precompress(dir: string): void;
