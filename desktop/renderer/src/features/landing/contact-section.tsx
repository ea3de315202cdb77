import { Button } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { landingAnchors, type SiteInfo } from '../../../../../shared/site';
import classes from './landing.module.css';

/** Get in Touch: an e-mail to support (the address comes from configuration). */
export function ContactSection({ site }: { site: SiteInfo | undefined }) {
  return (
    <section id={landingAnchors.contact} aria-labelledby="contact-title" className={classes.contact}>
      <div className={classes.contactCard}>
        <div>
          <h2 id="contact-title" className={classes.contactTitle}>
            Questions about plans or running Cairn yourself?
          </h2>
          <p className={classes.contactText}>
            Tell us what you are building and we will help you find the plan, limits and setup that fit it.
          </p>
        </div>
        {site && (
          <Button
            component="a"
            href={`mailto:${site.supportEmail}`}
            size="lg"
            variant="white"
            color="dark"
            leftSection={<IconMail size={20} aria-hidden />}
            className={classes.contactButton}
          >
            Get in Touch
          </Button>
        )}
      </div>
    </section>
  );
}
