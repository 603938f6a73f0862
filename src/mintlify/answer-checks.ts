/**
 * Small checks for the service's JSON answers: each field of each row is checked against what the
 * published document declares. A row that fails is skipped and counted by the caller (see
 * checkedRows); a page whose own fields fail is unusable. The checked values are copied field by
 * field, so nothing undeclared (or deliberately left out) comes along.
 */
export type Check = (value: unknown) => boolean

export const isString: Check = v => typeof v === 'string'
export const isBoolean: Check = v => typeof v === 'boolean'
/** A finite number, as JSON can carry it; counts are never negative. */
export const isCount: Check = v => typeof v === 'number' && Number.isFinite(v) && v >= 0
export const isWholeCount: Check = v => isCount(v) && Number.isInteger(v)
export const orNull =
  (check: Check): Check =>
  v =>
    v === null || check(v)
export const oneOf =
  (...values: readonly string[]): Check =>
  v =>
    typeof v === 'string' && values.includes(v)
export const arrayOf =
  (shape: Shape): Check =>
  v =>
    Array.isArray(v) && v.every(item => problemIn(item, shape) === undefined)

/** A field the document does not require: absent is fine, present must match. */
export const optional = (check: Check): Check =>
  Object.assign((v: unknown) => v === undefined || check(v), { optional: true })

export type Shape = Record<string, Check>

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** What a value is, for a message: numbers and booleans as they are, texts never quoted. */
function described(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return 'a text'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return `an ${typeof value}`
}

/** The first field of `value` that does not match `shape`, or undefined when all do. */
export function problemIn(value: unknown, shape: Shape): string | undefined {
  if (!isObject(value)) return 'not an object'
  // `for…in` over the shape (a plain object): no array per row, which a long export would feel.
  for (const field in shape) {
    const check = shape[field] as Check
    if (!(field in value)) {
      if ((check as { optional?: boolean }).optional) continue
      return `'${field}' is missing`
    }
    if (!check(value[field]))
      return `'${field}' has the wrong type or value (${described(value[field])})`
  }
  return undefined
}

/** The fields of `shape` (only those) copied from a value already checked against it. */
export function pick<T>(value: unknown, shape: Shape): T {
  const source = value as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const field in shape) copy[field] = source[field]
  return copy as T
}
