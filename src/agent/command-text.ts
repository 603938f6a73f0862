/**
 * The text after the trigger phrase (`/docs-agent`), or undefined when the text does not start with
 * it: the phrase must stand alone, in any case, before a space or the end. The one rule for issue
 * comments, comments on docs pull requests and reviews.
 */
export function commandText(body: string, phrase: string): string | undefined {
  const text = body.trimStart()
  if (!text.toLowerCase().startsWith(phrase.toLowerCase())) return undefined
  const rest = text.slice(phrase.length)
  if (rest !== '' && !/^\s/.test(rest)) return undefined
  return rest.trim()
}
