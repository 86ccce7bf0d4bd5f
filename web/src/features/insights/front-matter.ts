// Splits a Markdown file into its front matter (a flat `key: value` block between `---` lines) and body.
// Values: "quoted" or bare strings, numbers, true/false, and [a, b] lists of bare strings.
export type FrontMatterValue = string | number | boolean | string[];

export function parseFrontMatter(source: string): { data: Record<string, FrontMatterValue>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, FrontMatterValue> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    data[line.slice(0, colon).trim()] = parseValue(line.slice(colon + 1).trim());
  }
  return { data, body: match[2] };
}

function parseValue(raw: string): FrontMatterValue {
  if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) return raw.slice(1, -1);
  if (raw.startsWith('[') && raw.endsWith(']')) {
    return raw
      .slice(1, -1)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}
