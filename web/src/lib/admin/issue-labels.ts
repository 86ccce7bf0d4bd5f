// Words for the database's issue vocabularies: job_missing_fields (spec §5 Data Quality) and job_publish_problems
// (reg. 27 and the closing date). The dashboard's Data Quality panel uses the same words.
export const MISSING_LABELS: Record<string, string> = {
  description: 'No description',
  requirements: 'No requirements',
  company: "Company is 'Unknown Company'",
  salary: 'No salary',
  salary_competitive: "Salary is 'Competitive'",
};

export const PROBLEM_LABELS: Record<string, string> = {
  agency_name: 'Agency name not set',
  employment_type: 'Permanent or temporary?',
  description: 'Needs the nature of the work',
  location: 'Needs a location',
  requirements: 'Needs minimum experience',
  closing_date: 'Closing date passed',
};
