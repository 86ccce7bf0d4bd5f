// Home page (placeholder while the sections are built).
import { Seo } from '@/lib/seo';
import { site } from '@/content/site';

export default function HomePage() {
  return (
    <>
      <Seo title={`${site.name} | Property & Built Environment Recruitment`} exactTitle description={site.description} path="/" />
      <section className="page-hero">
        <div className="container">
          <h1>Property careers, built on trust</h1>
        </div>
      </section>
    </>
  );
}
