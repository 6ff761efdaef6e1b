/**
 * What a document file is, read from its bytes (never from its name or declared type), and whether
 * it is whole: a file cut short (an interrupted upload, a truncated copy) is refused, not stored.
 */
export type DocumentMediaType = 'application/pdf' | 'image/jpeg' | 'image/png';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The IEND chunk every PNG ends with: length 0, type, CRC. */
const PNG_IEND = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
/** PDF readers look for the end-of-file marker within the last 1024 bytes. */
const PDF_TAIL_BYTES = 1024;

const startsWith = (content: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => content[at + i] === b);
const ascii = (content: Uint8Array, from: number, to: number) =>
  Buffer.from(content.buffer, content.byteOffset + from, Math.max(0, to - from)).toString('latin1');

/** The type its first bytes announce, or undefined. */
export function mediaTypeOf(content: Uint8Array): DocumentMediaType | undefined {
  if (startsWith(content, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(content, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(content, PNG_SIGNATURE)) return 'image/png';
  return undefined;
}

/** Trailing bytes some writers pad files with (NUL, whitespace) are not part of the format. */
function endWithoutPadding(content: Uint8Array): number {
  let end = content.length;
  while (end > 0 && [0x00, 0x09, 0x0a, 0x0d, 0x20].includes(content[end - 1])) end--;
  return end;
}

/** Why a file of that type is not a whole one, or undefined when it is. */
export function incompleteFileProblem(content: Uint8Array, mediaType: DocumentMediaType): string | undefined {
  switch (mediaType) {
    case 'image/png': {
      // The first chunk is IHDR, 13 bytes long; the last is IEND.
      const header = startsWith(content, [0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52], 8);
      const ended = content.length >= 8 + 25 + 12 && startsWith(content, PNG_IEND, content.length - PNG_IEND.length);
      return header && ended ? undefined : 'is not a complete PNG image (IHDR or IEND chunk missing)';
    }
    case 'image/jpeg': {
      const end = endWithoutPadding(content);
      return end >= 4 && content[end - 2] === 0xff && content[end - 1] === 0xd9
        ? undefined
        : 'is not a complete JPEG image (end-of-image marker missing)';
    }
    case 'application/pdf': {
      const end = content.length;
      return ascii(content, Math.max(0, end - PDF_TAIL_BYTES), end).includes('%%EOF')
        ? undefined
        : 'is not a complete PDF file (%%EOF missing)';
    }
  }
}
