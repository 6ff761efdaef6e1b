/** Beside the validators compiled at build, which require this module for the contract's formats. */
export { CONTRACT_FORMATS } from '../../lib/contract/contract-formats';
