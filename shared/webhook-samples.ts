// Built-in sample payloads of each trigger, as the matcher sees them and deliveries carry them: taken from the
// deterministic sandbox chain (Cardano preprod) by server/features/webhooks/sample.ts. The JSONPath sandbox starts from
// these, so it works with no server at all.
import type { Trigger } from './webhooks';

export const builtInSamples: Record<Trigger, unknown> = {
  "transaction": [
    {
      "tx": {
        "hash": "d405aa69c8261c2dd173d9965bf890ff926d8f864d1a222c27c877a25c2b5864",
        "block": "6ebdabf86c0db8bc71cb3d7cec4896b69f3ff465a9927e529c2f1e15d46cbc6b",
        "block_height": 2986953,
        "block_time": 1795428660,
        "slot": 59739060,
        "index": 0,
        "output_amount": [
          {
            "unit": "lovelace",
            "quantity": "11666362"
          }
        ],
        "fees": "175753",
        "deposit": "0",
        "size": 463,
        "invalid_before": null,
        "invalid_hereafter": "59748659",
        "utxo_count": 3,
        "withdrawal_count": 0,
        "mir_cert_count": 0,
        "delegation_count": 0,
        "stake_cert_count": 0,
        "pool_update_count": 0,
        "pool_retire_count": 0,
        "asset_mint_or_burn_count": 0,
        "redeemer_count": 0,
        "valid_contract": true,
        "treasury_donation": "0"
      },
      "inputs": [
        {
          "address": "addr_test1qp27t0lt2je22kmgv6q6dv24rxkuhkf05tffnreza5nwenwp42xe7tnd5lwkswhud4skfdnq5schyx2cjx8qnyc24a0q4pku84",
          "amount": [
            {
              "unit": "lovelace",
              "quantity": "11842115"
            }
          ],
          "tx_hash": "432ccae5076f253c0818de49ba944d3f1179f349216162369516c2469f8ec146",
          "output_index": 3,
          "data_hash": null,
          "inline_datum": null,
          "reference_script_hash": null,
          "collateral": false,
          "reference": false
        }
      ],
      "outputs": [
        {
          "address": "addr_test1vr2wdghlr4zf56fd8vxcwazlezptvfeknuyq38chmmdu8yc0lkt2z",
          "amount": [
            {
              "unit": "lovelace",
              "quantity": "1000000"
            }
          ],
          "output_index": 0,
          "data_hash": null,
          "inline_datum": null,
          "collateral": false,
          "reference_script_hash": null,
          "consumed_by_tx": null
        },
        {
          "address": "addr_test1qrmamlyewcnm3vmn6dxc2zpapv76gzdy8vr79483j05zjpkp42xe7tnd5lwkswhud4skfdnq5schyx2cjx8qnyc24a0qefwz7h",
          "amount": [
            {
              "unit": "lovelace",
              "quantity": "10666362"
            }
          ],
          "output_index": 1,
          "data_hash": null,
          "inline_datum": null,
          "collateral": false,
          "reference_script_hash": null,
          "consumed_by_tx": null
        }
      ]
    }
  ],
  "block": {
    "time": 1795428660,
    "height": 2986953,
    "hash": "6ebdabf86c0db8bc71cb3d7cec4896b69f3ff465a9927e529c2f1e15d46cbc6b",
    "slot": 59739060,
    "epoch": 16594,
    "epoch_slot": 660,
    "slot_leader": "pool144as2zy3lv25v7x2s63e44d852adyl625ez04x0qs7y8qhztust",
    "size": 988,
    "tx_count": 2,
    "output": "83079028",
    "fees": "354058",
    "block_vrf": "vrf_vk1vfw3nvhjdgqq7p4qslallymkunzpxhvepkf0fwje3g693ff5e3wq0l93az",
    "op_cert": "10fa7b362bc3098560a90f224a52d66fe88afe156aeb5590c098ad32c628b21d",
    "op_cert_counter": "195",
    "previous_block": "9211fa344c8f912bd9be2b86e5105e23adcf923823730cefa01ffd945afbe97d",
    "next_block": null,
    "confirmations": 0
  },
  "delegation": [
    {
      "tx": {
        "hash": "b6a99eb35e855c72c84b4ea3ff3cf0c284b82ac3d9624706b49d615afe743fb7",
        "block": "457fa86a02d7971800ff284a69bd7379f865d441ac0c304d37544cb30f9ce643",
        "block_height": 2986949,
        "block_time": 1795428580,
        "slot": 59738980,
        "index": 0,
        "output_amount": [
          {
            "unit": "lovelace",
            "quantity": "119052911"
          },
          {
            "unit": "24ada734ed12608f955c007764027a93e3c47327f1cb46da30045321506562626c65",
            "quantity": "2446106346"
          }
        ],
        "fees": "181869",
        "deposit": "0",
        "size": 602,
        "invalid_before": null,
        "invalid_hereafter": "59746541",
        "utxo_count": 2,
        "withdrawal_count": 0,
        "mir_cert_count": 0,
        "delegation_count": 1,
        "stake_cert_count": 0,
        "pool_update_count": 0,
        "pool_retire_count": 0,
        "asset_mint_or_burn_count": 0,
        "redeemer_count": 0,
        "valid_contract": true,
        "treasury_donation": "0"
      },
      "delegations": [
        {
          "index": 0,
          "cert_index": 0,
          "address": "stake_test1uzyvehpga8nw0mq76nrtex4v9gdpft9yauxrz5q2przygpsagne8x",
          "pool_id": "pool1mtcz6qggkakjgqe03dkk8e0hszczjc2g3545nyj6yxvd79nwpgm",
          "active_epoch": 16596,
          "pool": {
            "pool_id": "pool1mtcz6qggkakjgqe03dkk8e0hszczjc2g3545nyj6yxvd79nwpgm",
            "hex": "daf02d0108b76d24032f8b6d63e5f780b02961488d2b49925a2198df",
            "vrf_key": "d49c3de6de4f901a19f50f90f2f8a5d7ff61c4fff9d4aa95aaae0e6285f815ee",
            "blocks_minted": 16595,
            "blocks_epoch": 1,
            "live_stake": "2137279000000",
            "live_size": 0.00501,
            "live_saturation": 0.028497,
            "live_delegators": 630,
            "active_stake": "2146548000000",
            "active_size": 0.005141,
            "declared_pledge": "443457000000",
            "live_pledge": "443486000000",
            "margin_cost": 0.02,
            "fixed_cost": "170000000",
            "reward_account": "stake_test1uqghel8hre34mqvpk7rnqru49spq3mhzehrvv2h4uzk87usd88wrt",
            "owners": [
              "stake_test1uqghel8hre34mqvpk7rnqru49spq3mhzehrvv2h4uzk87usd88wrt"
            ],
            "registration": [
              "6ff8f22639280e4b0054785194c9f9b6885a3da7c4ae49361d49379ba81f5fd4"
            ],
            "retirement": [],
            "calidus_key": null
          }
        }
      ]
    }
  ],
  "epoch": {
    "previous_epoch": {
      "epoch": 16593,
      "start_time": 1795424400,
      "end_time": 1795428000,
      "first_block_time": 1795424400,
      "last_block_time": 1795427980,
      "block_count": 180,
      "tx_count": 1997,
      "output": "85378577888272",
      "fees": "410718741",
      "active_stake": "420321431000000"
    },
    "current_epoch": {
      "epoch": 16594,
      "start_time": 1795428000,
      "end_time": 1795431600
    }
  },
  // Not read from a chain: a change of state of a transaction a project submitted (server/features/txs).
  "tx_status": {
    "tx_hash": "d405aa69c8261c2dd173d9965bf890ff926d8f864d1a222c27c877a25c2b5864",
    "project": "0b6e9c3e-5d7a-4c1e-9f2b-3a8d4e6f7a10",
    "state": "confirmed",
    "previous_state": "in_block",
    "block_height": 2986953,
    "block_hash": "6ebdabf86c0db8bc71cb3d7cec4896b69f3ff465a9927e529c2f1e15d46cbc6b",
    "depth": 10,
    "confirmations_needed": 10,
    "at": 1795428860
  }
};
