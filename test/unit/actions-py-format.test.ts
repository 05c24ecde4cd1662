// Python's printf-style % of the workflow templates (py-format.ts), each row checked against Python 3
// (jinja2 3.1.6 renders "%.2f" % x and | format with it): the format, the value, what Python writes.
import { describe, expect, it } from 'vitest';
import { pyFormat, pyRound } from '../../src/actions/workflow/py-format.js';
import { pyTuple } from '../../src/actions/workflow/py-values.js';

describe('pyFormat as Python formats', () => {
  // %f of any precision, exact and half to even: toFixed threw a RangeError past 100 digits ("%.150f"),
  // wrote 1e22 as "1e+22", and "%+f" % -0.0 as "+-0.000000".
  const fixed: [string, number, string][] = [
    ['%.150f', 0.1, '0.100000000000000005551115123125782702118158340454101562500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'],
    ['%.2f', 1e22, '10000000000000000000000.00'],
    ['%.0f', 2.5, '2'],
    ['%f', 1 / 3, '0.333333'],
    ['%+f', -0, '-0.000000'],
    ['%+.1f', 2.25, '+2.2'],
    ['% .1f', 2.35, ' 2.4'],
    ['%.3f', -0.0004, '-0.000'],
    ['%08.2f', -3.14159, '-0003.14'],
    ['%.2f', 5e-324, '0.00'],
    ['%.1100f', 5e-324, '0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000494065645841246544176568792868221372365059802614324764425585682500675507270208751865299836361635992379796564695445717730926656710355939796398774796010781878126300713190311404527845817167848982103688718636056998730723050006387409153564984387312473397273169615140031715385398074126238565591171026658556686768187039560310624931945271591492455329305456544401127480129709999541931989409080416563324524757147869014726780159355238611550134803526493472019379026810710749170333222684475333572083243193609238289345836806010601150616980975307834227731832924790498252473077637592724787465608477820373446969953364701797267771758512566055119913150489110145103786273816725095583738973359899366480994116420570263709027924276754456522908753868250641971826553344726562500000000000000000000000000'],
    ['%.2f', Infinity, 'inf'],
    ['%5.1f', NaN, '  nan'],
  ];
  it.each(fixed)('%s %% %s', (fmt, v, want) => {
    expect(pyFormat(fmt, v)).toBe(want);
  });

  // round(x, p) where templates cannot write the literal (nunjucks reads no exponents): the ends of the
  // double range, as Python 3 answers.
  const rounds: [number, number, number][] = [[5e-324, 323, 0], [5e-324, 324, 5e-324], [1e300, -299, 1e300], [1.7e308, -300, 1.7e308], [-2.5, 0, -2], [123.456, -1, 120]];
  it.each(rounds)('round(%s, %s) is %s', (x, p, want) => {
    expect(pyRound(x, p)).toBe(want);
  });

  // %r is Python's repr(), the one str() of a list uses: a newline, a tab, a backslash after a quote
  // and control characters escaped (%r had its own repr that wrote a newline as it is).
  const reprs: [unknown, string][] = [
    ["a\nb", "'a\\nb'"],
    ["it's\\ \n", "\"it's\\\\ \\n\""],
    ["q\"uote's", "'q\"uote\\'s'"],
    ["tab\there\u0000\u007f\u00a0\u00e9\ud83d\ude00\u2028", "'tab\\there\\x00\\x7f\\xa0\u00e9\ud83d\ude00\\u2028'"],
    [["x\n", {"k": "it's"}], "['x\\n', {'k': \"it's\"}]"],
  ];
  it.each(reprs)('percent-r is Python repr, row %#', (v, want) => {
    expect(pyFormat('%r', v)).toBe(want);
  });

  // %e and %g of the exact value as Python writes them: toExponential rounded a tie up ("%.0e" % 2.5 was
  // 3e+00) and threw past 100 digits, %g printed JavaScript's form (1e-7, not 1e-07); %c past U+10FFFF
  // threw a bare RangeError.
  const exponent: [string, number, string][] = [
    ["%.0e", 2.5, "2e+00"],
    ["%e", 0.0, "0.000000e+00"],
    ["%.120e", 0.1, "1.000000000000000055511151231257827021181583404541015625000000000000000000000000000000000000000000000000000000000000000000e-01"],
    ["%e", 5e-324, "4.940656e-324"],
    ["%.3e", 9.9996, "1.000e+01"],
    ["%E", -1234.5, "-1.234500E+03"],
    ["%.2e", 1e+300, "1.00e+300"],
    ["%e", 1e-07, "1.000000e-07"],
    ["%+e", 1.0, "+1.000000e+00"],
    ["%g", 1e-07, "1e-07"],
    ["%g", 0.0001, "0.0001"],
    ["%g", 123456789.0, "1.23457e+08"],
    ["%g", 100000.0, "100000"],
    ["%g", 1000000.0, "1e+06"],
    ["%.3g", 2.675, "2.67"],
    ["%.120g", 0.1, "0.1000000000000000055511151231257827021181583404541015625"],
    ["%#g", 1.5, "1.50000"],
    ["%G", 1e-10, "1E-10"],
    ["%.0g", 0.5, "0.5"],
    ["%g", 0.3333333333333333, "0.333333"],
    ["%g", 2.5, "2.5"],
    ["%e", Infinity, "inf"],
    ["%G", NaN, "NAN"],
    ["%10.3e", 3.14159, " 3.142e+00"],
    ["%-12g|", 0.5, "0.5         |"],
  ];
  it.each(exponent)('%s %% %s', (fmt, v, want) => {
    expect(pyFormat(fmt, v)).toBe(want);
  });
  it('%c past U+10FFFF is an OverflowError, as Python', () => {
    expect(() => pyFormat('%c', 1e9)).toThrow('OverflowError: %c arg not in range(0x110000)');
    expect(pyFormat('%c', 0x1f600)).toBe('😀');
  });

  // A format with no conversions takes a list or a dict (Python counts them as mappings) but not a tuple
  // with items or a scalar: 'hi' % [] stopped with "not all arguments converted" (TEA printed hi).
  const leftovers: [string, unknown, string | null][] = [
    ['hi', [], 'hi'],
    ['hi', {}, 'hi'],
    ['hi', [1], 'hi'],
    ['hi %%', [], 'hi %'],
    ['%s', {}, '{}'],
    ['hi', pyTuple([]), 'hi'],
    ['hi', pyTuple([1]), null],
    ['hi', 5, null],
    ['hi', 'x', null],
    ['hi', null, null],
  ];
  it.each(leftovers)('%j %% %j leaves no argument unconverted unless Python says so', (fmt, v, want) => {
    if (want === null) expect(() => pyFormat(fmt, v)).toThrow('TypeError: not all arguments converted during string formatting');
    else expect(pyFormat(fmt, v)).toBe(want);
  });

  it('%d writes every digit of a large number, and inf or nan is an error, as Python', () => {
    expect(pyFormat('%d|%i|%+d', pyTuple([1e21, -2.5e22, 7]))).toBe('1000000000000000000000|-24999999999999997902848|+7');
    expect(() => pyFormat('%d', Infinity)).toThrow('OverflowError: cannot convert float infinity to integer');
    expect(() => pyFormat('%d', NaN)).toThrow('ValueError: cannot convert float NaN to integer');
  });
});
