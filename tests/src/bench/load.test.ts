import t from 'tap';
import { spreadOf } from './load';

// The bench runs more alternating rounds while the per-round ratios spread wide: how wide is the
// interquartile range as a share of the median.
t.test('the spread of per-round ratios: the middle half, as a share of the median', async (t) => {
  t.equal(spreadOf([0.5, 0.5, 0.5, 0.5, 0.5]), 0, 'all alike');
  t.equal(spreadOf([0.4, 0.5, 0.5, 0.5, 0.9]), 0, 'one slow and one fast round do not count');
  t.ok(Math.abs(spreadOf([0.3, 0.4, 0.5, 0.6, 0.7]) - 0.4) < 1e-9, 'spread out: 0.2 of 0.5');
  t.equal(spreadOf([0.5, 0.5, 0.5]), Infinity, 'too few rounds to know');
});
