// Types of scripts/check-web-size.mjs for the test that imports it.
export const STOREFRONT_BUDGET: number;
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
export function initialChunks(manifest: Record<string, ManifestChunk>, entry: string): string[];
export function initialJavaScript(
  publicDir: string,
  page: 'storefront' | 'dashboard',
): { files: string[]; raw: number; gzipped: number };
