export { InFlight } from './in-flight';
