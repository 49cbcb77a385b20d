/**
 * An English dictionary has exactly the Russian one's keys (nested), each a string: a missing or extra
 * key in a `*.en.ts` file is a type error.
 */
export type Dictionary<T> = { [K in keyof T]: T[K] extends string ? string : Dictionary<T[K]> };
