-- The cvs bucket keeps content sniffing on (gateway/migrations/0081): a CV must be, by its bytes, a PDF or Word
-- document as declared — a renamed executable or a text file called cv.pdf is refused — while other buckets follow
-- Storage's rule (the declared type against allowed_mime_types).
update storage.buckets set sniff_content = true where id = 'cvs';
