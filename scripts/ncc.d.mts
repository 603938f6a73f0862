export declare const ROOT: string
export declare const COMPILED: string
/** The name of a chunk ncc writes beside a bundle for a dynamic import(). */
export declare const CHUNK: RegExp
export declare function compileSources(): void
export declare function compiledPath(source: string): string
export declare function nccBundle(input: string, outFile: string, name?: string): Promise<number>
