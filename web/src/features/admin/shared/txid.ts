/** A transaction id is optional; when given it is 64 hexadecimal characters (the server's rule). */
export const txidRefusal = (txid: string) =>
  txid.trim() && !/^[0-9a-fA-F]{64}$/.test(txid.trim()) ? 'The transaction id must be 64 hexadecimal characters' : null;
