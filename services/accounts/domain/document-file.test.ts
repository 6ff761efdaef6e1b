import { incompleteFileProblem, mediaTypeOf } from './document-file';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('the type is read from the first bytes', () => {
  expect([PNG, JPEG, PDF].map(mediaTypeOf)).toEqual(['image/png', 'image/jpeg', 'application/pdf']);
  expect(mediaTypeOf(Buffer.from('MZ\x90\x00'))).toBeUndefined();
});

test('whole files pass; a JPEG padded after its end marker too', () => {
  expect(incompleteFileProblem(PNG, 'image/png')).toBeUndefined();
  expect(incompleteFileProblem(JPEG, 'image/jpeg')).toBeUndefined();
  expect(incompleteFileProblem(Buffer.concat([JPEG, Buffer.from('\r\n\0\0')]), 'image/jpeg')).toBeUndefined();
  expect(incompleteFileProblem(PDF, 'application/pdf')).toBeUndefined();
});

test.each(
  [
    ['PNG signature only', PNG.subarray(0, 8), 'image/png'],
    ['PNG without IEND', PNG.subarray(0, PNG.length - 12), 'image/png'],
    [
      'PNG whose first chunk is not IHDR',
      Buffer.concat([PNG.subarray(0, 12), Buffer.from('IDAT'), PNG.subarray(16)]),
      'image/png',
    ],
    ['JPEG start of image only', JPEG.subarray(0, 3), 'image/jpeg'],
    ['JPEG cut before its end marker', JPEG.subarray(0, JPEG.length - 1), 'image/jpeg'],
    ['PDF header only', Buffer.from('%PDF-'), 'application/pdf'],
    ['PDF cut before %%EOF', PDF.subarray(0, PDF.length - 4), 'application/pdf'],
    [
      'PDF whose %%EOF is more than 1024 bytes from the end',
      Buffer.concat([PDF, Buffer.alloc(1100, 0x20)]),
      'application/pdf',
    ],
  ] as const,
)('%s is incomplete', (_what, content, type) => {
  expect(incompleteFileProblem(content, type)).toMatch(/^is not a complete /);
});
