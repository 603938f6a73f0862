import { describe, expect, it } from 'vitest'
import { RepeatedRows } from '../../src/visitors/repeats.js'

const page = (from: number, size = 250): string[] =>
  Array.from({ length: size }, (_, i) => `/docs/page-${from + i}`)

describe('RepeatedRows', () => {
  it('lets distinct pages through, however many', () => {
    const repeats = new RepeatedRows()
    for (let p = 0; p < 1000; p++) expect(repeats.check(p * 250, page(p * 250))).toBeNull()
  })

  it('catches a row of the page before, the same page again and a page from far back', () => {
    const overlap = new RepeatedRows()
    overlap.check(0, page(0))
    expect(overlap.check(250, page(249))).toBe(
      "the service sent the row for '/docs/page-249' again at offset 250"
    )
    const far = new RepeatedRows()
    for (let p = 0; p < 100; p++) far.check(p * 250, page(p * 250))
    expect(far.check(25_000, page(5_000))).toBe(
      "the service sent the page of offset 5000 again at offset 25000 (from '/docs/page-5000')"
    )
  })

  it('tells pages apart by every path, not by their joined text', () => {
    const repeats = new RepeatedRows()
    expect(repeats.check(0, ['/a', '/b/c'])).toBeNull()
    expect(repeats.check(2, ['/x'])).toBeNull()
    expect(repeats.check(3, ['/a/b', '/c'])).toBeNull()
  })

  it('passes over an empty page (the export checks those itself) and names long paths shortly', () => {
    const repeats = new RepeatedRows()
    expect(repeats.check(0, [])).toBeNull()
    expect(repeats.check(0, [])).toBeNull()
    const long = `/${'x'.repeat(1000)}`
    repeats.check(0, [long])
    expect(repeats.check(1, [long])).toBe(
      `the service sent the row for '${long.slice(0, 200)}' again at offset 1`
    )
  })
})
