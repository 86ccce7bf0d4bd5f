// Small typed decoders for the jsonb answers of RPCs (generated as Json): each api module checks the shape once.
export type Decoder<T> = (value: unknown, path?: string) => T;

/** An answer that does not have the shape the page was written for: a broken contract, reported, never cast. */
export class DecodeError extends Error {}

function fail(path: string, expected: string): never {
  throw new DecodeError(`Unexpected answer at ${path}: expected ${expected}`);
}

export const str: Decoder<string> = (v, p = '$') => (typeof v === 'string' ? v : fail(p, 'a string'));
export const num: Decoder<number> = (v, p = '$') => (typeof v === 'number' ? v : fail(p, 'a number'));
export const bool: Decoder<boolean> = (v, p = '$') => (typeof v === 'boolean' ? v : fail(p, 'true or false'));

export function oneOf<const T extends string>(values: readonly T[]): Decoder<T> {
  const known: readonly string[] = values;
  return (v, p = '$') => (typeof v === 'string' && known.includes(v) ? (v as T) : fail(p, values.join(' | ')));
}

/** SQL null (or a key json_build_object left out) becomes null. */
export function nullable<T>(d: Decoder<T>): Decoder<T | null> {
  return (v, p = '$') => (v === null || v === undefined ? null : d(v, p));
}

export function optional<T>(d: Decoder<T>): Decoder<T | undefined> {
  return (v, p = '$') => (v === undefined || v === null ? undefined : d(v, p));
}

export function array<T>(d: Decoder<T>): Decoder<T[]> {
  return (v, p = '$') => (Array.isArray(v) ? v.map((item, i) => d(item, `${p}[${i}]`)) : fail(p, 'a list'));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function record<T>(d: Decoder<T>): Decoder<Record<string, T>> {
  return (v, p = '$') => {
    if (!isObject(v)) return fail(p, 'an object');
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, d(item, `${p}.${k}`)]));
  };
}

type Shape = Record<string, Decoder<unknown>>;
export type Decoded<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/** An object with these keys (others are ignored), each checked by its decoder. */
export function object<S extends Shape>(shape: S): Decoder<Decoded<S>> {
  return (v, p = '$') => {
    if (!isObject(v)) return fail(p, 'an object');
    const entries = Object.keys(shape).map((k) => [k, shape[k](v[k], `${p}.${k}`)]);
    return Object.fromEntries(entries) as Decoded<S>;
  };
}

/** An object with exactly these keys, each checked by one decoder (counts per status, say). */
export function keyed<K extends string, T>(keys: readonly K[], d: Decoder<T>): Decoder<Record<K, T>> {
  return object(Object.fromEntries(keys.map((k) => [k, d])) as Record<K, Decoder<T>>);
}
