/** Absolute path of ../shared/reference/grid-openapi.yaml, the reference OpenAPI the tests read. */
export declare const REFERENCE_OPENAPI: string;
/** The line printed when the reference is missing. */
export declare const MISSING_REFERENCE: string;
/** The one line to print when the reference is missing, or undefined when it is there. */
export declare function missingReference(): string | undefined;
/** Prints the line and ends the process with status 1 when the reference is missing. */
export declare function requireReference(): void;
