// The part of pdfmake's browser build (pdfmake/build/pdfmake, which ships no types) that cv-pdf.ts uses.
declare module 'pdfmake/build/pdfmake' {
  type FontFiles = { normal: string; bold: string; italics: string; bolditalics: string };
  const pdfMake: {
    fonts: Record<string, FontFiles>;
    setUrlAccessPolicy(policy: (url: string) => boolean): void;
    createPdf(doc: unknown): { getBlob(): Promise<Blob> };
  };
  export default pdfMake;
}
