/** JSON body of a response, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function jsonOf(response: Response): Promise<Json> {
  return response.json();
}
