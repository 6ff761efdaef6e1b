import { metricsExposureWarning } from './metrics';

test('a production metrics listener on every interface is warned about; loopback, or the sandbox, is not', () => {
  expect(metricsExposureWarning('0.0.0.0', 'production')).toMatch('METRICS_HOST');
  expect(metricsExposureWarning('::', 'production')).toMatch('every interface');
  expect(metricsExposureWarning('127.0.0.1', 'production')).toBeUndefined();
  expect(metricsExposureWarning('0.0.0.0', 'sandbox')).toBeUndefined();
});
