import { describe, expect, it } from 'vitest';
import { initialChunks } from '../scripts/check-web-size.mjs';

describe("the storefront's initial JavaScript (scripts/check-web-size.mjs)", () => {
  it('counts the entry chunk and what it imports statically, transitively and once, not what it loads later', () => {
    const manifest = {
      'index.html': { file: 'assets/storefront.js', imports: ['_ui.js', '_api.js'], dynamicImports: ['pages/a.tsx'] },
      '_ui.js': { file: 'assets/ui.js', imports: ['_preact.js'] },
      '_api.js': { file: 'assets/api.js', imports: ['_preact.js'] },
      '_preact.js': { file: 'assets/preact.js' },
      'pages/a.tsx': { file: 'assets/a.js', imports: ['_big.js'] },
      '_big.js': { file: 'assets/big.js' },
    };
    expect(initialChunks(manifest, 'index.html')).toEqual([
      'assets/storefront.js',
      'assets/ui.js',
      'assets/preact.js',
      'assets/api.js',
    ]);
  });

  it('stops at a chunk the manifest does not have', () => {
    expect(() => initialChunks({ 'index.html': { file: 'a.js', imports: ['_gone.js'] } }, 'index.html')).toThrow(
      /no chunk _gone\.js/,
    );
  });
});
