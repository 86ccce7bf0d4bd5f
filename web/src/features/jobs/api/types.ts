// Job rows as the data API returns them (the data contract's `jobs` columns) and the shapes the pages display.
import type { Database } from '@/lib/database.types';

type Enums = Database['public']['Enums'];
export type EmploymentType = Enums['employment_type'];
export type WorkArrangement = Enums['work_arrangement'];
export type SalaryPeriod = Enums['salary_period'];

export type JobRow = {
  id: string;
  job_id: string | null;
  status: string;
  posted_date: string | null;
  closing_date: string | null;
  title: string;
  company: string | null;
  location: string | null;
  salary: string | null;
  salary_min: number | null;
  salary_max: number | null;
  type: string | null;
  sector: string | null;
  description: string | null;
  requirements: string | string[] | null;
  /** The stored rendering of description / requirements (absent on built-in sample jobs). */
  description_html?: string | null;
  requirements_html?: string | null;
  benefits: string[] | null;
  client_type: string | null;
  external_id: string | null;
  hero_image: string | null;
  consultant_name: string | null;
  consultant_email: string | null;
  /** Permanent or temporary (reg. 27) and the basis: permanent, fixed-term, contract, interim, temporary. */
  employment_type?: EmploymentType | null;
  work_arrangement?: WorkArrangement | null;
  region?: string | null;
  /** Unit of salary_min/salary_max (default year). */
  salary_period?: SalaryPeriod;
  created_at?: string;
  updated_at?: string;
  /** Sample and static jobs only: relative posted text such as '2 days ago'. */
  posted?: string;
};

/** Columns the public pages read (never `*`, so new private columns never leak into the page). */
export const JOB_COLUMNS =
  'id,job_id,status,posted_date,closing_date,title,company,location,salary,salary_min,salary_max,type,sector,description,requirements,description_html,requirements_html,benefits,client_type,external_id,hero_image,consultant_name,consultant_email,employment_type,work_arrangement,region,salary_period';
