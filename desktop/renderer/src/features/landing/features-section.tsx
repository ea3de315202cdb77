import { IconBolt, IconCube, IconDatabase, IconWebhook } from '@tabler/icons-react';
import classes from './landing.module.css';

const features = [
  {
    icon: IconCube,
    title: 'Cardano API',
    text: 'Blocks, transactions, addresses, assets and stake pools over a Blockfrost-compatible REST API, on mainnet, preprod, preview and devnets of your own.',
  },
  {
    icon: IconDatabase,
    title: 'IPFS and Filecoin',
    text: 'Add, pin and fetch content through an IPFS gateway, with Filecoin storage for the files that have to last.',
  },
  {
    icon: IconWebhook,
    title: 'Secure Webhooks',
    text: 'Signed notifications for transactions, blocks, delegations and epochs, filtered by conditions you define.',
  },
  {
    icon: IconBolt,
    title: 'Milkomeda EVM',
    text: 'JSON-RPC for the Milkomeda sidechain next to Cardano, with the same projects, keys and usage statistics.',
  },
];

export function FeaturesSection() {
  return (
    <section aria-labelledby="features-title" className={classes.features}>
      <div className={classes.container}>
        <div className={classes.sectionIntro}>
          <p className={classes.eyebrow}>Platform</p>
          <h2 id="features-title" className={classes.sectionTitle}>
            Everything your dApp needs, behind one key
          </h2>
          <p className={classes.sectionLead}>
            Create a project, copy its key and call the network. Workspaces keep your team, usage and billing in one place.
          </p>
        </div>
        <ul className={classes.featureGrid}>
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className={classes.featureCard}>
              <span className={classes.featureIcon} aria-hidden="true">
                <Icon size={24} stroke={1.8} />
              </span>
              <h3 className={classes.featureTitle}>{title}</h3>
              <p className={classes.featureText}>{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
