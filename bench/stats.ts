export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export const round = (value: number, digits = 1): number =>
  Math.round(value * 10 ** digits) / 10 ** digits

/** A goal line: PASS or MISS with the figure and the bar. */
export interface Goal {
  name: string
  figure: string
  bar: string
  pass: boolean
}

export const goal = (name: string, figure: string, bar: string, pass: boolean): Goal => ({
  name,
  figure,
  bar,
  pass
})
