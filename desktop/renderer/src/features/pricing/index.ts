// The plans as the landing page and the subscription pages show them.
export { PricingSection, type PlanKind } from './pricing-section';
export { planFeatures, planTitles } from './plan-card';
export { enterpriseContact } from './targets';
export { customerQuery } from './queries';
