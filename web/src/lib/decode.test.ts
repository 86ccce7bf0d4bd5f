// Unit tests of the jsonb answer decoders: shapes accepted as typed, anything else refused with where it broke.
import { describe, expect, it } from 'vitest';
import { array, bool, DecodeError, keyed, nullable, num, object, oneOf, optional, record, str } from './decode';

describe('decoders', () => {
  const job = object({ id: str, salary: nullable(num), live: bool, type: oneOf(['permanent', 'contract'] as const) });

  it('accepts the expected shape and ignores other keys', () => {
    expect(job({ id: 'a', salary: null, live: true, type: 'contract', extra: 1 })).toEqual({
      id: 'a',
      salary: null,
      live: true,
      type: 'contract',
    });
  });

  it('names the path of the first value that does not fit', () => {
    expect(() => array(job)([{ id: 'a', salary: 1, live: true, type: 'permanent' }, { id: 2 }])).toThrow(
      new DecodeError('Unexpected answer at $[1].id: expected a string'),
    );
    expect(() => job({ id: 'a', salary: '1', live: true, type: 'permanent' })).toThrow('$.salary: expected a number');
    expect(() => job({ id: 'a', salary: 1, live: true, type: 'interim' })).toThrow('expected permanent | contract');
    expect(() => job([])).toThrow('$: expected an object');
  });

  it('treats a missing key as null (nullable) or undefined (optional)', () => {
    expect(object({ a: nullable(str), b: optional(num) })({})).toEqual({ a: null, b: undefined });
    expect(() => object({ a: str })({})).toThrow('$.a: expected a string');
  });

  it('checks every value of a record and exactly the keys of keyed', () => {
    expect(record(num)({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(() => record(num)({ x: 1, y: 'two' })).toThrow('$.y: expected a number');
    expect(keyed(['new', 'hired'] as const, num)({ new: 3, hired: 0, other: 9 })).toEqual({ new: 3, hired: 0 });
    expect(() => keyed(['new', 'hired'] as const, num)({ new: 3 })).toThrow('$.hired: expected a number');
  });
});
