// Stands in for jq where it isn't installed, for the doc-examples test only: `jq [-r] [-c] FILTER`
// with FILTER a path (`.`, `.access`, `.items[0].id`, `.["key"]`). Anything else asks for jq.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const raw = args.includes('-r') || args.includes('--raw-output');
const compact = args.includes('-c') || args.includes('--compact-output');
const filter = args.find((a) => !a.startsWith('-')) ?? '.';
const STEP = /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\.?\[(\d+)\]|\.?\["([^"]*)"\])/;

function steps(text) {
  if (text === '.') return [];
  const out = [];
  let rest = text;
  while (rest !== '') {
    const m = STEP.exec(rest);
    if (!m) {
      console.error(`jq is not installed, and its stand-in only reads paths like .items[0].id, not ${text}`);
      process.exit(3);
    }
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
    rest = rest.slice(m[0].length);
  }
  return out;
}

const path = steps(filter);
const input = readFileSync(0, 'utf8');
let value;
try {
  value = JSON.parse(input);
} catch {
  console.error('jq: the input is not JSON');
  process.exit(2);
}
for (const key of path) value = value === null || typeof value !== 'object' ? null : (value[key] ?? null);
console.log(raw && typeof value === 'string' ? value : JSON.stringify(value, null, compact ? undefined : 2));
