// The featured_jobs row with its job embedded, as the home page and the admin both read it: typed from the generated schema.
import type { Tables } from './database.types';

export const FEATURED_SELECT = '*, jobs(id, title, company, location, salary, type)';

export type FeaturedJobRow = Tables<'featured_jobs'> & {
  jobs: Pick<Tables<'jobs'>, 'id' | 'title' | 'company' | 'location' | 'salary' | 'type'> | null;
};
