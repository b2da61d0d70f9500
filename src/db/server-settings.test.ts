import { describe, expect, it } from 'vitest';
import { serverSettingWarnings } from './server-settings.js';

describe('serverSettingWarnings', () => {
  it('says nothing about a server that runs autovacuum', () => {
    expect(serverSettingWarnings({ autovacuum: 'on' })).toEqual([]);
  });

  it('warns about a server without autovacuum, saying how to turn it on', () => {
    const [warning, ...rest] = serverSettingWarnings({ autovacuum: 'off' });
    expect(rest).toEqual([]);
    expect(warning).toMatch(/autovacuum is off/);
    expect(warning).toContain('alter system set autovacuum = on');
  });
});
