/** The export's file formats and the keys that rank its top pages. */
export const FORMATS = ['auto', 'json', 'csv'] as const
export const SORT_KEYS = ['total', 'human', 'ai'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type FileFormat = Exclude<(typeof FORMATS)[number], 'auto'>
