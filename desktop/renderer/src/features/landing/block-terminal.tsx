import { Fragment } from 'react';
import { useQuery } from '@tanstack/react-query';
import { landingSample, type LatestBlock } from '../../../../../shared/landing-sample';
import { landingQueries } from './queries';
import classes from './landing.module.css';

const fieldOrder: Array<keyof LatestBlock> = [
  'time',
  'height',
  'hash',
  'slot',
  'epoch',
  'epoch_slot',
  'slot_leader',
  'size',
  'tx_count',
  'output',
  'fees',
  'block_vrf',
  'op_cert',
  'op_cert_counter',
  'previous_block',
  'next_block',
  'confirmations',
];

function JsonValue({ value }: { value: LatestBlock[keyof LatestBlock] }) {
  if (value === null) return <span className={classes.tNull}>null</span>;
  if (typeof value === 'number') return <span className={classes.tNumber}>{value}</span>;
  return <span className={classes.tString}>&quot;{value}&quot;</span>;
}

/** The hero's terminal: the latest block as the API answers it (the built-in sample until, or unless, it arrives). */
export function BlockTerminal() {
  const latest = useQuery(landingQueries.latestBlock());
  const block = latest.data ?? landingSample;
  return (
    <figure className={classes.terminal} aria-label="Example API response: the latest Cardano block">
      <div className={classes.terminalBar} aria-hidden="true">
        <span className={classes.dot} style={{ background: '#ff6b6b' }} />
        <span className={classes.dot} style={{ background: '#fcc419' }} />
        <span className={classes.dot} style={{ background: '#51cf66' }} />
        <span className={classes.terminalTitle}>cardano-mainnet · blocks/latest</span>
      </div>
      <pre className={classes.terminalBody} data-testid="block-terminal">
        <span className={classes.tPrompt}>$ </span>
        <span className={classes.tCommand}>curl -H &quot;project_id: $PROJECT_ID&quot; \{'\n'}    $CAIRN_API/api/v0/blocks/latest</span>
        {'\n{\n'}
        {fieldOrder.map((key, i) => (
          <Fragment key={key}>
            {'  '}
            <span className={classes.tKey}>&quot;{key}&quot;</span>: <JsonValue value={block[key]} />
            {i < fieldOrder.length - 1 ? ',\n' : '\n'}
          </Fragment>
        ))}
        {'}'}
      </pre>
    </figure>
  );
}
