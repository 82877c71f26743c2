export async function createUserFromCli(..._a: unknown[]): Promise<any> { throw new Error("not yet"); }
