-- One URL encoder (0510): private.url_encode (URLSearchParams' form) and private.uri_component (encodeURIComponent)
-- are private.percent_encode with the form as a parameter, and give exactly what the browser's functions give.
begin;
\ir lib/setup.sql
select plan(13);

/* ---------------------------------------------------------------------------------------------------------------
 * URLSearchParams: space as +, safe A-Z a-z 0-9 * - . _
 * --------------------------------------------------------------------------------------------------------------- */
select is(private.url_encode('asset manager + surveyor & co/ltd'), 'asset+manager+%2B+surveyor+%26+co%2Fltd',
  'url_encode: space as +, and + & / encoded');
select is(private.url_encode('~*''()!-._'), '%7E*%27%28%29%21-._', 'url_encode: only * - . _ of the marks stay');
select is(private.url_encode('Café – £50k 😀'), 'Caf%C3%A9+%E2%80%93+%C2%A350k+%F0%9F%98%80',
  'url_encode: unicode as its UTF-8 bytes');
select is(private.url_encode('a=b?c#d%e'), 'a%3Db%3Fc%23d%25e', 'url_encode: = ? # % encoded');

/* ---------------------------------------------------------------------------------------------------------------
 * encodeURIComponent: space as %20, safe A-Z a-z 0-9 - _ . ! ~ * ' ( )
 * --------------------------------------------------------------------------------------------------------------- */
select is(private.uri_component('asset manager + surveyor & co/ltd'), 'asset%20manager%20%2B%20surveyor%20%26%20co%2Fltd',
  'uri_component: space as %20, and + & / encoded');
select is(private.uri_component('~*''()!-._'), '~*''()!-._', 'uri_component: the marks encodeURIComponent keeps');
select is(private.uri_component('Café – £50k 😀'), 'Caf%C3%A9%20%E2%80%93%20%C2%A350k%20%F0%9F%98%80',
  'uri_component: unicode as its UTF-8 bytes');

/* ---------------------------------------------------------------------------------------------------------------
 * One encoder
 * --------------------------------------------------------------------------------------------------------------- */
select is(private.percent_encode('a b', true) || '|' || private.percent_encode('a b', false), 'a+b|a%20b',
  'percent_encode takes the form as a parameter');
select is(private.url_encode('') || private.uri_component(''), '', 'the empty string stays empty');
select ok(private.url_encode(null) is null and private.uri_component(null) is null, 'null stays null');

/* ---------------------------------------------------------------------------------------------------------------
 * The decoder (one pass since 0510), the encoders' inverse
 * --------------------------------------------------------------------------------------------------------------- */
select is(private.url_decode(private.url_encode('asset manager + co/ltd & Café ~*''()! 😀')), 'asset manager + co/ltd & Café ~*''()! 😀',
  'url_decode undoes url_encode');
select is(private.url_decode('100%+%zz%4g%2x%2520'), '100% %zz%4g%2x%20', 'a % without two hex digits stays, %25 once');
select throws_ok($$ select private.url_decode('%FF%FE') $$, '22021', null, 'bytes that are not UTF-8 raise 22021');

select * from finish();
rollback;
