// The sample CV shown in the template previews of The CV Shed.
import type { CvDraft } from '@/lib/cv/model';

export const SAMPLE_CV: CvDraft = {
  personalInfo: { fullName: 'Jordan Ellis', email: 'jordan.ellis@example.com', phone: '07700 900456', location: 'Leeds' },
  summary: 'Chartered building surveyor with ten years across commercial and residential portfolios, leading multidisciplinary teams and client relationships.',
  experience: [
    { id: 's1', title: 'Associate Director', company: 'Northgate Surveying', startDate: '2020-02', endDate: '', description: 'Lead a team of eight surveyors delivering dilapidations and project monitoring.' },
    { id: 's2', title: 'Senior Building Surveyor', company: 'Carter Lane Consulting', startDate: '2015-06', endDate: '2020-01', description: 'Ran planned maintenance programmes for a £400m retail portfolio.' },
  ],
  education: [{ id: 'e1', degree: 'BSc Building Surveying', institution: 'Sheffield Hallam University', year: '2014' }],
  skills: 'Dilapidations, party wall, project monitoring, RICS APC counsellor',
  step: 0,
  template: 'professional',
};
