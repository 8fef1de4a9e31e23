export async function runOpenReviewSync(..._a: unknown[]): Promise<number> { return 2; }
