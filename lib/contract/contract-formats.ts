import type { FormatDefinition } from 'ajv';
import { FORMAT_CHECKS } from '../value-formats';

const stringFormat = (validate: (value: string) => boolean): FormatDefinition<string> => ({ type: 'string', validate });

/**
 * Formats the schemas name, checked as the services check them; `uri` is JSON Schema's own.
 * As ajv takes them: the validators compiled at build require this module for them.
 */
export const CONTRACT_FORMATS: Record<string, FormatDefinition<string>> = {
  ...Object.fromEntries(Object.entries(FORMAT_CHECKS).map(([name, check]) => [name, stringFormat(check.test)])),
  uri: stringFormat((v) => URL.canParse(v)),
};
