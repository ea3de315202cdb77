// /network, /network/eras and /genesis: supply, stake, eras and the genesis parameters.
import type { ChainContext } from '../../context';
import type { PoolModel } from '../pools/queries';
import { networkEras, type Era } from '../../eras';
import type { Genesis, Network } from '../../../../../shared/chain';

const MAX_SUPPLY = 45_000_000_000_000_000n;

/** The chain's queries behind /genesis and /network. */
export interface NetworkQueries {
  networkInfo(): Network;
  genesis(): Genesis;
  /** /network/eras: the eras with their bounds and parameters. */
  eras(): Era[];
}

export function networkPaths(ctx: ChainContext, pools: PoolModel): NetworkQueries {
  const { tipHeight, epochOf } = ctx;
  const { blocksPerEpoch, slotsPerBlock, firstSlot, time, networkMagic, securityParam } = ctx.params;
  const { totalStake } = pools;
  const paths: NetworkQueries = {
    networkInfo() {
      const tip = tipHeight();
      const epoch = BigInt(epochOf(tip));
      let reserves = 7_000_000_000_000_000n - epoch * 2_000_000_000n;
      if (reserves < 1_000_000_000_000_000n) reserves = 1_000_000_000_000_000n;
      const treasury = 1_500_000_000_000_000n + epoch * 400_000_000n;
      const total = MAX_SUPPLY - reserves;
      return {
        supply: {
          max: String(MAX_SUPPLY),
          total: String(total),
          circulating: String(total - treasury - 250_000_000_000_000n),
          locked: String(300_000_000_000_000n + (epoch % 1000n) * 1_000_000_000n),
          treasury: String(treasury),
          reserves: String(reserves),
        },
        stake: { live: String(totalStake(Number(epoch))), active: String(totalStake(Number(epoch) - 2)) },
      };
    },
    genesis() {
      return {
        active_slots_coefficient: 1 / slotsPerBlock,
        update_quorum: 5,
        max_lovelace_supply: String(MAX_SUPPLY),
        network_magic: networkMagic,
        epoch_length: blocksPerEpoch * slotsPerBlock,
        system_start: time.systemStart / 1000,
        slots_per_kes_period: 129_600,
        slot_length: time.slotLengthMs / 1000,
        max_kes_evolutions: 62,
        security_param: securityParam,
      };
    },
    eras() {
      return networkEras({ time, firstSlot, tip: tipHeight(), slotsPerBlock, blocksPerEpoch, securityParam: paths.genesis().security_param });
    },
  };
  return paths;
}
