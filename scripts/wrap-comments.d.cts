/** The text with its comments longer than `limit` columns wrapped; code, strings and templates are left as they are. */
export declare function wrapComments(fileName: string, text: string, limit: number): string;
