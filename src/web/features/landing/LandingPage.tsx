import { PublicLayout } from '../../components/layouts/PublicLayout.js';
import { AppsSection } from './components/AppsSection.js';
import { ClosingCta } from './components/ClosingCta.js';
import { Features } from './components/Features.js';
import { Hero } from './components/Hero.js';
import { MobileSection } from './components/MobileSection.js';
import { Pricing } from './components/Pricing.js';

/** / for visitors (public-area-and-api.md §2): hero with screenshot, features, mobile, apps, pricing, call to action. */
export default function LandingPage() {
  return (
    <PublicLayout transparentHeader>
      <Hero />
      <Features />
      <MobileSection />
      <AppsSection />
      <Pricing />
      <ClosingCta />
    </PublicLayout>
  );
}
