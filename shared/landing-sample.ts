// The latest-block sample of the landing page's terminal (spec section 3). GET /api/landing answers the
// live block from the gateway's upstream; when that fails, the server answers this built-in sample, and the
// page shows it while the call is in flight or when it fails.

export interface LatestBlock {
  /** Unix time in seconds. */
  time: number;
  height: number | null;
  hash: string;
  slot: number | null;
  epoch: number | null;
  epoch_slot: number | null;
  slot_leader: string;
  /** Bytes. */
  size: number;
  tx_count: number;
  /** Lovelace, as a decimal string. */
  output: string | null;
  /** Lovelace, as a decimal string. */
  fees: string | null;
  block_vrf: string | null;
  op_cert: string | null;
  op_cert_counter: string | null;
  previous_block: string | null;
  next_block: string | null;
  confirmations: number;
}

/** A Cardano mainnet block (epoch 604, 1 January 2026), shaped as the gateway's /blocks/latest answers. */
export const landingSample: LatestBlock = {
  time: 1767225611,
  height: 12904117,
  hash: '31f095d8bca933585579a76def40fec59b43d1901ec39b1b3374ee75df3438ed',
  slot: 175659320,
  epoch: 604,
  epoch_slot: 94520,
  slot_leader: 'pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy',
  size: 21864,
  tx_count: 14,
  output: '913486255331',
  fees: '3417296',
  block_vrf: 'vrf_vk18kdsq3p2jcfzw9vuakmgamuc043mlrfdp9pjqt0ud6f6d33akdzspuwwjd',
  op_cert: '235a854ebfae9a6d9412a2c2ed882ba410592fbccaff402eefd51271f91c4e88',
  op_cert_counter: '18',
  previous_block: 'a31b2ac4f360d6ee432e3b26251f3a12a8e1f6731d18d5e1cc6ef37e64a34362',
  next_block: null,
  confirmations: 0,
};
