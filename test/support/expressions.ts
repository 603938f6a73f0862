import { Evaluator, Lexer, Parser, data } from '@actions/expressions'

// GitHub Actions expressions as GitHub's own library (@actions/expressions, from its language
// services) reads and evaluates them: what a workflow's `if:`, `concurrency:` and `with:` become
// for a given event. The contexts are plain objects; the values come back as plain JSON.

/** The expression's value as the runner sees it, before any conversion to text. */
function evaluated(expression: string, context: Record<string, unknown>): data.ExpressionData {
  const { tokens } = new Lexer(expression).lex()
  const parsed = new Parser(tokens, Object.keys(context), []).parse()
  const contexts = JSON.parse(JSON.stringify(context), data.reviver) as data.Dictionary
  return new Evaluator(parsed, contexts).evaluate()
}

/** Evaluates one expression (without `${{ }}`) against the contexts (`github`, `inputs`…). */
export function evaluate(expression: string, context: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(evaluated(expression, context), data.replacer))
}

/** A workflow value as the runner makes it: each `${{ }}` replaced by its value, as text. */
export function interpolate(text: string, context: Record<string, unknown>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, inner: string) =>
    evaluated(inner, context).coerceString()
  )
}
