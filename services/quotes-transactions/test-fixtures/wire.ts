/**
 * A REST-shaped body as the members of its request message: the messages are named as the REST
 * bodies and their enums carry the REST strings, so a test can write requests as REST JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const wire = (body: object): any => body;
