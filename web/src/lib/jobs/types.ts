// Job rows as the data API returns them (the data contract's `jobs` columns) and the shapes the pages display.
import type { Database, Tables } from '@/lib/database.types';

type Enums = Database['public']['Enums'];
export type EmploymentType = Enums['employment_type'];
export type WorkArrangement = Enums['work_arrangement'];
export type SalaryPeriod = Enums['salary_period'];

type JobTable = Tables<'jobs'>;

/** The columns of JOB_COLUMNS as the generated schema types them. */
type StoredJob = Pick<
  JobTable,
  | 'id'
  | 'job_id'
  | 'status'
  | 'closing_date'
  | 'title'
  | 'location'
  | 'salary'
  | 'salary_min'
  | 'salary_max'
  | 'type'
  | 'sector'
  | 'description'
  | 'client_type'
  | 'external_id'
  | 'hero_image'
  | 'consultant_name'
  | 'consultant_email'
>;

/**
 * A job as the pages display it: a row of JOB_COLUMNS (assignable without a cast), or a built-in sample job, which
 * may leave the stored renderings and vocabularies out, carries a relative `posted` text and a list of requirements.
 */
export type JobRow = StoredJob &
  Partial<
    Pick<JobTable, 'description_html' | 'requirements_html' | 'employment_type' | 'work_arrangement' | 'region' | 'salary_period' | 'created_at' | 'updated_at'>
  > & {
    company: JobTable['company'] | null;
    posted_date: JobTable['posted_date'] | null;
    requirements: JobTable['requirements'] | string[];
    benefits: JobTable['benefits'] | null;
    /** Sample and static jobs only: relative posted text such as '2 days ago'. */
    posted?: string;
  };

/** Columns the public pages read (never `*`, so new private columns never leak into the page). */
export const JOB_COLUMNS =
  'id,job_id,status,posted_date,closing_date,title,company,location,salary,salary_min,salary_max,type,sector,description,requirements,description_html,requirements_html,benefits,client_type,external_id,hero_image,consultant_name,consultant_email,employment_type,work_arrangement,region,salary_period';
