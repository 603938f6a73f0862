/** Cells a spreadsheet would run as a formula begin with one of these (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/

/** One CSV field (RFC 4180), defused so that no spreadsheet reads it as a formula. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text
}
