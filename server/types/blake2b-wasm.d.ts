// blake2b-wasm ships no types: the part of its API shared/cardano/blake2b.ts uses.
declare module 'blake2b-wasm' {
  interface Blake2bHash {
    update(input: Uint8Array): Blake2bHash;
    digest(out: Uint8Array): Uint8Array;
  }
  interface Blake2bFactory {
    (digestLength: number, key?: Uint8Array | null, salt?: Uint8Array | null, personal?: Uint8Array | null, noAssert?: boolean): Blake2bHash;
    ready(cb: (err?: Error) => void): void;
    readonly SUPPORTED: boolean;
  }
  const Blake2b: Blake2bFactory;
  export default Blake2b;
}
