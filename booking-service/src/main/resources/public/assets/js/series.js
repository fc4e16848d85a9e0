// Recurring series: the booking dialog's "Repeat" part builds an RFC 5545 rule (weekly on the ticked days, a count
// or an end date, in this browser's time zone), and the bookings list marks occurrences and cancels the rest.
import { $, api, button, fmt, refreshViews, say } from './api.js';

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** The ticked weekdays, e.g. ['MO', 'TH']; none means a single booking. */
const tickedDays = () => DAYS.filter((d) => $('dlg-repeat-' + d.toLowerCase()).checked);

/** Whether the dialog asks for a series (only for a window, never for book now). */
export const repeats = () => !$('dlg-repeat').hidden && tickedDays().length > 0;

/** Shows the Repeat part for a window, hides it for book now, and clears it. */
export function resetRepeat(bookingNow) {
  $('dlg-repeat').hidden = bookingNow;
  $('dlg-repeat').disabled = bookingNow;
  for (const d of DAYS) {
    $('dlg-repeat-' + d.toLowerCase()).checked = false;
  }
  $('dlg-repeat-count').value = '4';
  $('dlg-repeat-until').value = '';
  $('dlg-repeat-all').checked = false;
}

/** The RRULE the dialog describes: an end date, when given, wins over the count. */
function rule() {
  const until = $('dlg-repeat-until').value;
  const bound = until ? 'UNTIL=' + until.replaceAll('-', '') : 'COUNT=' + Number($('dlg-repeat-count').value);
  return 'FREQ=WEEKLY;BYDAY=' + tickedDays().join(',') + ';' + bound;
}

/** A refused occurrence in words: when, and why. */
const refusal = (r) => fmt(r.start) + ' (' + (r.reason === 'SERIES_ALL_OR_NONE' ? 'fits, but all or none'
  : r.message || r.reason) + ')';

/** Books {@code body} (a booking request for the first occurrence) as a series; the dialog shows a refusal. */
export async function submitSeries(body) {
  const series = {
    ...body,
    recurrence: { rule: rule(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    mode: $('dlg-repeat-all').checked ? 'all-or-none' : 'each',
  };
  try {
    const res = await api('POST', '/api/v1/series', series);
    $('booking-dialog').close();
    await refreshViews();
    if (res.status === 202) {
      say('Series accepted; the decision is still pending.');
      return;
    }
    const s = res.data;
    const booked = s.confirmed.length;
    say('Booked ' + booked + ' of ' + (booked + s.refused.length) + ' occurrences of the series'
      + (s.refused.length ? '; not booked: ' + s.refused.map(refusal).join(', ') : ''), s.refused.length > 0);
  } catch (e) {
    const refused = (e.problem && e.problem.refused) || [];
    $('dlg-error').textContent = e.message + (refused.length ? ' Not booked: ' + refused.map(refusal).join(', ') : '');
  }
}

/** The "Series" marker after a booking's state, when it is an occurrence of one. */
export function seriesMark(cell, b) {
  if (!b.seriesId) {
    return;
  }
  const mark = document.createElement('span');
  mark.className = 'series-mark';
  mark.textContent = ' · series';
  mark.title = 'One occurrence of a recurring series';
  cell.appendChild(mark);
}

/** "Cancel rest of series": this occurrence and every later one that has not started. */
export function seriesActions(actions, b) {
  if (!b.seriesId || b.state !== 'CONFIRMED') {
    return;
  }
  const label = 'Cancel the series from ' + fmt(b.start) + ' on';
  actions.appendChild(button('Cancel rest of series', 'cancel-series', async () => {
    try {
      const res = await api('DELETE', '/api/v1/series/' + encodeURIComponent(b.seriesId) + '?from='
        + encodeURIComponent(b.start));
      await refreshViews();
      say(res.status === 202 ? 'Accepted; the decision is still pending.'
        : 'Cancelled ' + res.data.cancelled.length + ' occurrences of the series from ' + fmt(b.start) + ' on');
    } catch (e) {
      say(e.message, true);
    }
  }, label));
}
