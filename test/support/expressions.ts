// A small evaluator of GitHub Actions expressions, for what the examples' `if:` and `concurrency:`
// keys use: literals, property paths (with `.*.` filters), `!`, `==`, `!=`, `&&`, `||`, parentheses,
// `contains`, `startsWith` and `format`. Enough to ask "which group does this event's run join?"
// of a workflow file; anything else it meets is an error, never a guess.

type Value = unknown

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(&&|\|\||==|!=|[!(),])|([A-Za-z_][\w-]*(?:\.(?:\*|[A-Za-z_][\w-]*))*))/y

function tokenize(text: string): string[] {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(text)
    if (!m) throw new Error(`Cannot read the expression at ${at}: ${text.slice(at, at + 30)}`)
    tokens.push(m[2] !== undefined ? `'${m[2]}` : ((m[1] ?? m[3] ?? m[4]) as string))
  }
  return tokens
}

/** GitHub's loose equality: strings compare without regard to case. */
function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase()
  return a === b
}

function lookup(path: string, context: Record<string, Value>): Value {
  let values: Value[] = [context]
  let filtered = false
  for (const part of path.split('.')) {
    if (part === '*') {
      values = values.flatMap(v => (Array.isArray(v) ? v : []))
      filtered = true
      continue
    }
    values = values.map(v =>
      v && typeof v === 'object' ? (v as Record<string, Value>)[part] : undefined
    )
  }
  return filtered ? values.filter(v => v !== undefined) : values[0]
}

const truthy = (v: Value): boolean => Boolean(v)

const FUNCTIONS: Record<string, (...args: Value[]) => Value> = {
  contains: (haystack, needle) =>
    Array.isArray(haystack)
      ? haystack.some(item => equal(item, needle))
      : String(haystack ?? '')
          .toLowerCase()
          .includes(String(needle ?? '').toLowerCase()),
  startsWith: (text, prefix) =>
    String(text ?? '')
      .toLowerCase()
      .startsWith(String(prefix ?? '').toLowerCase()),
  format: (template, ...args) =>
    String(template).replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)] ?? ''))
}

/** Evaluates one expression (without `${{ }}`) against the contexts (`github`, `inputs`…). */
export function evaluate(expression: string, context: Record<string, Value>): Value {
  const tokens = tokenize(expression)
  let i = 0
  const peek = (): string | undefined => tokens[i]
  const expect = (token: string): void => {
    if (tokens[i++] !== token) throw new Error(`Expected '${token}' in: ${expression}`)
  }
  // `a && b` is b when a is truthy, else a; `a || b` is a when a is truthy, else b (as GitHub's).
  const chain =
    (op: string, next: () => Value, pick: (left: Value, right: Value) => Value) => (): Value => {
      let left = next()
      while (peek() === op) {
        i++
        left = pick(left, next())
      }
      return left
    }
  const and = (): Value => chain('&&', comparison, (l, r) => (truthy(l) ? r : l))()
  const or = (): Value => chain('||', and, (l, r) => (truthy(l) ? l : r))()
  const comparison = (): Value => {
    const left = unary()
    const op = peek()
    if (op !== '==' && op !== '!=') return left
    i++
    const same = equal(left, unary())
    return op === '==' ? same : !same
  }
  const unary = (): Value => {
    if (peek() === '!') {
      i++
      return !truthy(unary())
    }
    return primary()
  }
  const primary = (): Value => {
    const token = tokens[i++]
    if (token === undefined) throw new Error(`The expression ends early: ${expression}`)
    if (token === '(') {
      const value = or()
      expect(')')
      return value
    }
    if (token.startsWith("'")) return token.slice(1).replace(/''/g, "'")
    if (/^\d/.test(token)) return Number(token)
    if (token === 'true' || token === 'false') return token === 'true'
    if (token === 'null') return null
    const fn = FUNCTIONS[token]
    if (fn && peek() === '(') {
      i++
      const args: Value[] = []
      while (peek() !== ')') {
        args.push(or())
        if (peek() === ',') i++
      }
      expect(')')
      return fn(...args)
    }
    if (/^[A-Za-z_]/.test(token)) return lookup(token, context)
    throw new Error(`Unexpected '${token}' in: ${expression}`)
  }
  const value = or()
  if (i !== tokens.length) throw new Error(`Unread text after ${i} tokens in: ${expression}`)
  return value
}

/** A workflow value as the runner makes it: each `${{ }}` replaced by its value, as text. */
export function interpolate(text: string, context: Record<string, Value>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, inner: string) => {
    const value = evaluate(inner, context)
    return value === undefined || value === null ? '' : String(value)
  })
}
